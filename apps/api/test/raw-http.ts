import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A bare keep-alive HTTP/1.1 connection: writes requests byte for byte and reads responses in order, so
 * tests see what a browser's or agent's reused socket sees (inject() has no connection to stall).
 */
export class RawConnection {
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;
  readonly socket: Socket;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    const done = () => {
      this.closed = true;
      this.wake();
    };
    socket.on('end', done);
    socket.on('close', done);
    // A server that stops reading may reset a socket we are still writing to: that is a close too.
    socket.on('error', done);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new RawConnection(s)));
      s.once('error', reject);
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  private next(): Promise<void> {
    return new Promise((r) => this.waiters.push(r));
  }

  /** Writes without waiting for the peer to take the bytes (a refusal may come while the body is in flight). */
  write(data: string | Buffer): void {
    if (!this.closed) this.socket.write(data, () => {});
  }

  /** The next complete response, or null when the server closed the connection instead. */
  async response(): Promise<RawResponse | null> {
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = this.buf.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of head.slice(1)) {
          const i = line.indexOf(':');
          headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (this.buf.length >= end + 4 + length) {
          const body = this.buf.subarray(end + 4, end + 4 + length).toString('utf8');
          this.buf = this.buf.subarray(end + 4 + length);
          return { status: Number(head[0]!.split(' ')[1]), headers, body };
        }
      }
      if (this.closed) return null;
      await this.next();
    }
  }

  /** Resolves once the server has closed the connection. */
  async closedByServer(): Promise<void> {
    while (!this.closed) await this.next();
  }

  close(): void {
    this.socket.destroy();
  }
}

export const rawRequest = (
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body: Buffer | string = '',
) =>
  Buffer.concat([
    Buffer.from(
      `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`,
      'latin1',
    ),
    Buffer.from(body),
  ]);
