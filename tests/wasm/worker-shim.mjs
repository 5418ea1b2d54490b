// Runs web/wasm/engine-worker.js in a Node.js worker thread: the worker's globals of a browser
// (postMessage, onmessage) over worker_threads' parentPort.
import { parentPort } from 'node:worker_threads';

globalThis.postMessage = (m) => parentPort.postMessage(m);
await import('../../web/wasm/engine-worker.js');
parentPort.on('message', (data) => globalThis.onmessage && globalThis.onmessage({ data }));
