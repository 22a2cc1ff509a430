// Requests Node's HTTP parser refuses before the app sees them: headers over the size limit (431),
// a malformed request (400), a request that took too long to arrive (408). Node's own handler writes
// that answer and then destroys the socket at once; when the client is still sending (the rest of a
// 40 kB header), the unread bytes make the kernel reset the connection, and the client may see
// ECONNRESET instead of the answer (the hostile suite did, once in ~170 such requests under load).
// Here the same answer is written and the socket only half-closed: what the client still sends is
// read and dropped until it closes its side, within a bound.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const STATUS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** How long a refused connection may keep sending before it is cut. */
const DRAIN_MS = 5000;

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Gone, or already answered (the parser reports each later chunk of a refused request again).
    if (error.code === 'ECONNRESET' || !socket.writable) return;
    // A response still being written (pipelined requests): raw bytes would corrupt it.
    if ((socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const status = STATUS[error.code ?? ''] ?? '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    setTimeout(() => socket.destroy(), DRAIN_MS).unref();
  });
}
