// run.mjs drives the jco-transpiled Go guest in Node through the same
// scenarios as the Go conformance suite and prints what it observed as JSON
// (bigints as strings); the Go test checks the values.
import { guest } from './out/guest.component.js';
import { Counter } from './host.js';

const out = {};
const fault = (f) => { try { f(); return 'no error'; } catch (e) { if (!('payload' in e)) throw e; return e.payload; } };
const bundle = {
  id: 18446744073709551614n, name: 'bündel ✓', tags: ['a', '', 'ünï'],
  points: [{ x: -1, y: 2147483647, label: 'p0' }, { x: -2147483648, y: 0, label: '' }],
  color: 'blue', shape: { tag: 'rectangle', val: { x: 3, y: -4, label: 'rect' } },
  note: 'a note', ratio: -2.5e300, scale: 1.25, flag: true, tiny: -128, port: 65535,
  offset: -9223372036854775808n, initial: '𝄞', payload: new Uint8Array([0, 1, 2, 255]),
  groups: [['x', 'y'], [], ['z']], origin: { x: 7, y: 8, label: 'origin' },
};
const json = (v) => JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? Array.from(x) : x);
out.bundleSame = json(guest.transformBundle(bundle)) === json(bundle);
out.emptyName = fault(() => guest.transformBundle({ ...bundle, name: '' }));
out.probeText = guest.probeText('héllo');
out.tooLarge = fault(() => guest.probeText('123456789'));
out.invalid = fault(() => guest.probeText(''));
out.probeShape = guest.probeShape({ tag: 'named', val: 'tri✓' });
out.probeShapeNone = guest.probeShape({ tag: 'circle', val: 9 }) ?? null;
const c = new Counter(5n);
out.countWith = guest.countWith(c, 3);
out.counterValue = c.value;
const owned = guest.openCounter(41n);
out.openCounter = owned instanceof Counter ? owned.value : 'not a host Counter';
out.score = guest.scoreShape({ tag: 'rectangle', val: { x: 10, y: -3, label: 'ab' } }, 1n << 40n, 'blue');
out.scoreNone = guest.scoreShape({ tag: 'unknown', val: 'xyz' }, undefined, 'unknown');
const acc = new guest.Accumulator('acc-1');
out.drainEmpty = fault(() => acc.drain());
out.push1 = acc.push(['a', 'béta']);
out.push2 = acc.push(['c']);
out.drain = acc.drain();
acc[Symbol.dispose]();
console.log(json(out));
