// Worker-thread entry: runs analyzeFile off the main thread. Bundled as out/main/audio-worker.js.
import { parentPort } from 'node:worker_threads';
import { analyzeFile, type AnalyzeFileOptions, type FileAnalysis } from './analyze';

/** Request sent to the worker. */
export interface AnalyzeRequest {
  id: number;
  path: string;
  options: AnalyzeFileOptions;
}

/** Reply from the worker; errors are flattened because class identity does not cross threads. */
export type AnalyzeReply =
  | { id: number; ok: true; result: FileAnalysis }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

const port = parentPort;
if (port) {
  port.on('message', (req: AnalyzeRequest) => {
    analyzeFile(req.path, req.options).then(
      (result) => port.postMessage({ id: req.id, ok: true, result } satisfies AnalyzeReply),
      (err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        const code = (e as { code?: unknown }).code;
        port.postMessage({
          id: req.id,
          ok: false,
          error: { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) },
        } satisfies AnalyzeReply);
      },
    );
  });
}
