// Reads a zip in memory with yauzl, the zip reader Playwright itself bundles (and exports as
// playwright-core/lib/utilsBundle): the trace tests read the zips Playwright writes with it.
import { createRequire } from 'node:module';

interface ZipEntry {
  fileName: string;
}
interface ZipFile {
  readEntry(): void;
  on(event: 'entry', listener: (entry: ZipEntry) => void): void;
  on(event: 'end', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  openReadStream(entry: ZipEntry, callback: (error: Error | null, stream: NodeJS.ReadableStream) => void): void;
}
const { yauzl } = createRequire(import.meta.url)('playwright-core/lib/utilsBundle') as {
  yauzl: { fromBuffer(buffer: Buffer, options: { lazyEntries: boolean }, callback: (error: Error | null, zip: ZipFile) => void): void };
};

/** Every file of the zip by name; rejects when the bytes are not a valid zip. */
export function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
