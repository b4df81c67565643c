// preopen.mjs works around jco 1.35.0 starting its WASI filesystem shim with
// no preopened directories, which makes `jco embed` and `jco types` unable to
// read any WIT path. It preopens the current directory only: preopening "/"
// made `jco embed` run for minutes and take gigabytes. Load it with
// NODE_OPTIONS=--import=<this file> and give jco paths inside the current
// directory.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const shim = join(here, 'node_modules/@bytecodealliance/jco-transpile/node_modules/@bytecodealliance/preview2-shim/dist/nodejs/filesystem.js');
if (existsSync(shim)) {
  const fs = await import(pathToFileURL(shim).href);
  fs._setPreopens({ [process.cwd()]: process.cwd() });
}
