// The conformance world's host interface for Node, as its WIT documents.
export class Counter {
  constructor(start) { this.value = start; }
  add(delta) { this.value += delta; return this.value; }
  describe() { return String(this.value); }
}

export function echoBundle(value) { return value; }

export function checkText(text) {
  if (text === '') throw { payload: { tag: 'invalid', val: text } };
  const n = Buffer.byteLength(text, 'utf8');
  if (n > 8) throw { payload: { tag: 'too-large', val: 8 } };
  return n;
}

export function nameShape(value) {
  return value.tag === 'named' || value.tag === 'unknown' ? value.val : undefined;
}
