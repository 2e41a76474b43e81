import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a test receiver saw. */
export type Hit = { body: string; headers: http.IncomingHttpHeaders; answered: number }

/** How a receiver answers the n-th request (1-based); `hang` never answers. */
export type Behaviour = (n: number, hit: { body: string; headers: http.IncomingHttpHeaders }) => number | 'hang'

export type Receiver = { url: string; hits: Hit[]; close: () => Promise<void> }

/** startReceiver starts a real HTTP receiver on loopback that answers according to `behave`. */
export function startReceiver(behave: Behaviour): Promise<Receiver> {
  const hits: Hit[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const answer = behave(hits.length + 1, { body, headers: req.headers })
      hits.push({ body, headers: req.headers, answered: answer === 'hang' ? 0 : answer })
      if (answer === 'hang') return
      res.writeHead(answer, answer >= 300 && answer < 400 ? { location: 'http://127.0.0.1:1/elsewhere' } : {}).end('ok')
    })
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        hits,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}
