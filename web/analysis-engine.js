// The analysis board's local engine: schach's engine in WebAssembly in a Web Worker
// (wasm/engine-worker.js, docs/wasm.md). analyse(fen) starts a search of that position (ending the
// one before); each completed iteration's lines come to onLines(lines, fen) as an array by multipv:
// {depth, score, pv, san, san_de}. The worker is made on first use and kept until the engine is off.

// Each search is bounded, so a position left on the board does not keep a core busy for ever.
const SEARCH = { depth: 30, movetime: 30000 };

export class LocalEngine {
  /** ON_LINES(lines, fen): the best lines so far; ON_STATE(state): 'starting', 'ready',
   *  'unavailable'. */
  constructor(onLines, onState) {
    this.onLines = onLines;
    this.onState = onState;
    this.worker = null;
    this.ready = false;
    this.search = 0;
    this.fen = null;
    this.multipv = 1;
    this.chess960 = false;
    this.lines = [];
  }

  start() {
    if (this.worker) return;
    this.onState('starting');
    try {
      this.worker = new Worker('/wasm/engine-worker.js', { type: 'module' });
    } catch (_) {
      this.worker = null;
      this.onState('unavailable');
      return;
    }
    this.worker.onerror = () => {
      this.stop();
      this.onState('unavailable');
    };
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.worker.postMessage({ type: 'init' });
  }

  /** Ends the worker (and its search). */
  stop() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = false;
    this.lines = [];
  }

  /** Searches FEN with MULTIPV lines (1-3). */
  analyse(fen, multipv = this.multipv, chess960 = this.chess960) {
    this.fen = fen;
    this.multipv = multipv;
    this.chess960 = chess960;
    this.lines = [];
    if (!this.worker) this.start();
    if (this.ready) this.go();
  }

  go() {
    if (!this.worker || !this.fen) return;
    this.search++;
    this.worker.postMessage({ type: 'position', fen: this.fen, chess960: this.chess960 });
    this.worker.postMessage({ type: 'go', ...SEARCH, multipv: this.multipv, id: this.search });
  }

  onMessage(m) {
    if (!m) return;
    if (m.type === 'ready') {
      this.ready = true;
      this.onState('ready');
      this.go();
    } else if (m.type === 'unavailable') {
      this.stop();
      this.onState('unavailable');
    } else if (m.type === 'info' && m.id === this.search && m.pv && m.pv.length) {
      const i = (m.multipv || 1) - 1;
      // A new depth starts a new set of lines; lines of the depth before stay until they are replaced.
      this.lines[i] = { depth: m.depth, score: m.score, pv: m.pv, san: m.san, san_de: m.san_de };
      this.lines.length = Math.min(this.lines.length, this.multipv);
      this.onLines(this.lines.filter(Boolean), this.fen);
    } else if (m.type === 'bestmove' && m.id === this.search && !m.move) {
      this.onLines([], this.fen, true);
    }
  }
}
