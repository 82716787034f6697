import { useSyncExternalStore } from "react";

/*
 * The optional chime for new orders and messages: off unless an admin turns it on, remembered per
 * browser (localStorage: a preference of the device at the counter, not of the account). Drawn
 * with Web Audio rather than an audio file, so there is nothing to load or to cache.
 */
const STORAGE_KEY = "shop:admin-notice-sound";
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the same browser turned it on or off: follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** Whether the chime is on in this browser (off on the server and until read). */
export function useNoticeSound(): boolean {
  return useSyncExternalStore(subscribe, read, () => false);
}

let audio: AudioContext | undefined;

/** The page's audio context, resumed if it can be (browsers allow it after the visitor's first click or key). */
function audioContext(): AudioContext | undefined {
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") void audio.resume().catch(() => {});
    return audio;
  } catch {
    return undefined;
  }
}

/** Turns the chime on or off for this browser; turning it on (a click) also unlocks audio for the page. */
export function setNoticeSound(on: boolean) {
  try {
    if (on) localStorage.setItem(STORAGE_KEY, "on");
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused: the setting cannot be kept, so it stays off.
  }
  if (on) audioContext();
  for (const listener of listeners) listener();
}

/** Two soft rising tones, under half a second; silent where the browser allows no audio yet. */
export function playNoticeChime() {
  const context = audioContext();
  if (!context) return;
  const start = context.currentTime;
  [660, 880].forEach((frequency, index) => {
    const at = start + index * 0.15;
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
    tone.connect(volume).connect(context.destination);
    tone.start(at);
    tone.stop(at + 0.32);
  });
}
