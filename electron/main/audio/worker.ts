// Worker-thread entry: runs analyzeFile (or a peaks pass) off the main thread. Bundled as out/main/audio-worker.js.
import { parentPort } from 'node:worker_threads';
import {
  analyzeFile,
  mp3PeakParts,
  peaksFromFile,
  type AnalyzeFileOptions,
  type FileAnalysis,
  type Mp3PeakPart,
  type Mp3PeakPartsOptions,
  type PeaksFromFileOptions,
} from './file-analysis';
import type { PeaksData } from './peaks';

/**
 * Request sent to the worker: a full analysis, waveform peaks, or the peaks of the parts of an MP3 this worker
 * claims (the pool's workers share the claim counter, a SharedArrayBuffer).
 */
export type AnalyzeRequest =
  | { id: number; kind: 'analyze'; path: string; options: AnalyzeFileOptions }
  | { id: number; kind: 'peaks'; path: string; options: PeaksFromFileOptions }
  | { id: number; kind: 'mp3-peak-parts'; path: string; options: Mp3PeakPartsOptions };

/** What each kind of request yields. */
export interface AnalyzeResults {
  analyze: FileAnalysis;
  peaks: { peaks: PeaksData; peaksPath: string | null };
  'mp3-peak-parts': Mp3PeakPart[];
}

/** Reply from the worker; errors are flattened because class identity does not cross threads. */
export type AnalyzeReply =
  | { id: number; ok: true; result: AnalyzeResults[keyof AnalyzeResults] }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

/** Runs one request on the current thread. */
export function runRequest(req: AnalyzeRequest): Promise<AnalyzeResults[keyof AnalyzeResults]> {
  if (req.kind === 'peaks') return peaksFromFile(req.path, req.options);
  if (req.kind === 'mp3-peak-parts') return mp3PeakParts(req.path, req.options);
  return analyzeFile(req.path, req.options);
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
