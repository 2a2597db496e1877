/** Every value of a stream, in order. */
export const collect = async <A>(stream: ReadableStream<A>): Promise<Array<A>> => {
  const values: Array<A> = []
  const reader = stream.getReader()
  while (true) {
    const { done, value } = await reader.read()
    if (done) return values
    values.push(value)
  }
}
