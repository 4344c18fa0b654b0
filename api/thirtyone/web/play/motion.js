// Cards that move: after a redraw each card seen before glides from where it was to where it
// is now (FLIP: first, last, invert, play), and a card that changes hands out of sight of
// the redraw (a computer player's discard) flies from the seat to the pile. Nothing moves for
// a reader who asked the system for reduced motion.

const REDUCED = matchMedia("(prefers-reduced-motion: reduce)");
export const GLIDE_MS = 350;

/** Whether the reader asked the system for reduced motion (nothing moves then). */
export const still = () => REDUCED.matches;

/** Where each face-up card of `root` is now, by its code. */
export function positions(root) {
  const found = new Map();
  for (const image of root.querySelectorAll("img[data-card]")) {
    if (image.dataset.card) found.set(image.dataset.card, image.getBoundingClientRect());
  }
  return found;
}

function slide(element, from) {
  const now = element.getBoundingClientRect();
  const dx = from.left - now.left;
  const dy = from.top - now.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  element.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: GLIDE_MS, easing: "ease-out" });
}

/** Each card of `root` that `before` saw elsewhere glides from there to its place. */
export function glide(root, before) {
  if (still()) return;
  for (const image of root.querySelectorAll("img[data-card]")) {
    const from = image.dataset.card && before.get(image.dataset.card);
    if (from) slide(image, from);
  }
}

/** `element`, just put in its new place, glides there from the box `from`. */
export function arrive(element, from) {
  if (!still() && from) slide(element, from);
}
