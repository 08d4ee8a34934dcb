// Worker-thread entry: runs analyzeFile (or a peaks pass) off the main thread. Bundled as out/main/audio-worker.js.
import { parentPort } from 'node:worker_threads';
import {
  analyzeFile,
  peaksFromFile,
  type AnalyzeFileOptions,
  type FileAnalysis,
  type PeaksFromFileOptions,
} from './file-analysis';
import type { PeaksData } from './peaks';

/** Request sent to the worker: a full analysis, or waveform peaks (of a whole file or of one part of it). */
export type AnalyzeRequest =
  | { id: number; kind: 'analyze'; path: string; options: AnalyzeFileOptions }
  | { id: number; kind: 'peaks'; path: string; options: PeaksFromFileOptions };

/** What each kind of request yields. */
export interface AnalyzeResults {
  analyze: FileAnalysis;
  peaks: { peaks: PeaksData; peaksPath: string | null };
}

/** Reply from the worker; errors are flattened because class identity does not cross threads. */
export type AnalyzeReply =
  | { id: number; ok: true; result: AnalyzeResults[keyof AnalyzeResults] }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

/** Runs one request on the current thread. */
export function runRequest(req: AnalyzeRequest): Promise<AnalyzeResults[keyof AnalyzeResults]> {
  return req.kind === 'peaks' ? peaksFromFile(req.path, req.options) : analyzeFile(req.path, req.options);
}

const port = parentPort;
if (port) {
  port.on('message', (req: AnalyzeRequest) => {
    runRequest(req).then(
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
