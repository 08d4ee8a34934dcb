// The downloads: a queue (queue.ts) of jobs (job.ts) over one transport interface (transport.ts); README.md says
// how the bytes flow and why.
export * from './downloads-service';
export * from './errors';
export * from './follow-threads';
export * from './lean-http';
export * from './queue';
export * from './rate-meter';
export * from './transfer-thread';
export * from './transport';
export * from './handlers';
export * from './background-fetch';
export * from './live-peaks';
