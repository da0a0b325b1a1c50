// What a view derives from a recorded run, once per run: stepping, scrubbing and playing then only
// read it, so a render joins strings and stays far below a frame.
const memo = new WeakMap();  // model → { key: what a view derived from it }

export function derived(m, key, make) {
  let slot = memo.get(m);
  if (!slot) memo.set(m, (slot = {}));
  if (!(key in slot)) slot[key] = make(m);
  return slot[key];
}
