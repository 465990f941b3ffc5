/** `npm run generate:flags`: rewrites the README's flag tables from the binaries' flag tables (scripts/readme-flags.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { withFlagTables } from './readme-flags.js';

const path = process.argv[2] ?? 'README.md';
const before = readFileSync(path, 'utf8');
const after = withFlagTables(before);
if (after !== before) writeFileSync(path, after);
process.stdout.write(after === before ? `${path}: flag tables up to date\n` : `${path}: flag tables rewritten\n`);
