// Short tones for your turn, a knock and the end of a round, drawn by the Web Audio API (no
// sound file to fetch); silent unless the player switched sounds on in the settings.
import { settings } from "./settings.js";

// Each sound: its notes (Hz) one after the other, each this long.
const NOTES = { turn: [660, 880], knock: [196, 147], round: [523, 659, 784] };
const NOTE_S = 0.12;

let context = null;

/** Play `name` ("turn", "knock", "round") if sounds are on. */
export function sound(name) {
  if (!settings().sound || !globalThis.AudioContext) return;
  context ??= new AudioContext();
  const start = context.currentTime;
  NOTES[name].forEach((frequency, index) => {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    const at = start + index * NOTE_S;
    gain.gain.setValueAtTime(0.15, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + NOTE_S);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + NOTE_S);
  });
  // What was played, for a test to read (a page cannot listen to its own output).
  document.documentElement.dataset.sound = name;
}
