// Move, capture, check and game-end sounds, made with the Web Audio API (no audio files), and the
// header's mute switch, remembered per browser. Browsers let a page make sound only after the user
// has pressed something on it: the audio context is created at the first key or pointer press, and
// until then play() is silent.
import { t } from './i18n.js';
import './strings-game.js';

const MUTE_KEY = 'schach.muted';
let ctx = null;

function unlock() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      ctx = new Ctx();
    } catch (_) {
      return;
    }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
}
for (const type of ['pointerdown', 'keydown']) window.addEventListener(type, unlock, { capture: true, passive: true });

export function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch (_) {
    return false;
  }
}

function setMuted(on) {
  try {
    if (on) localStorage.setItem(MUTE_KEY, '1');
    else localStorage.removeItem(MUTE_KEY);
  } catch (_) {
    // Not remembered, but the switch applies to this page (the button's state says which).
  }
}

// Each sound: tones of [frequency Hz, start s, length s], a wave form and a loudness.
const SOUNDS = {
  move: { wave: 'triangle', gain: 0.25, tones: [[520, 0, 0.07]] },
  capture: { wave: 'square', gain: 0.12, tones: [[300, 0, 0.06], [220, 0.05, 0.09]] },
  check: { wave: 'sine', gain: 0.3, tones: [[880, 0, 0.08], [880, 0.12, 0.08]] },
  end: { wave: 'sine', gain: 0.25, tones: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.25]] },
};

/** Plays KIND ("move", "capture", "check", "end") unless muted or no gesture has come yet. What was
 *  asked is noted on the body (data-sound) for the browser tests, which cannot hear. */
export function play(kind) {
  const s = SOUNDS[kind];
  if (!s) return;
  const wanted = !muted();
  document.body.dataset.sound = `${kind}:${wanted ? 'on' : 'muted'}`;
  if (!wanted || !ctx || ctx.state !== 'running') return;
  const now = ctx.currentTime;
  for (const [freq, start, len] of s.tones) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = s.wave;
    osc.frequency.value = freq;
    // A quick rise and an exponential fall: no click at either end.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(s.gain, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + len + 0.02);
  }
}

/** Shows and wires the header's mute switch (a toggle button: aria-pressed true = muted). */
export function initMuteSwitch() {
  const b = document.getElementById('mute');
  if (!b) return;
  const label = () => {
    b.textContent = t('mute');
    b.title = t('mute_title');
    b.setAttribute('aria-pressed', muted() ? 'true' : 'false');
  };
  label();
  b.hidden = false;
  if (!b.dataset.bound) {
    b.dataset.bound = '1';
    b.addEventListener('click', () => {
      setMuted(!muted());
      label();
    });
  }
  return label;
}
