import { readFile } from "node:fs/promises";
import { runLoad, type LoadSpec } from "./loadgen.ts";

// `node --import tsx bench/lib/loadgen-process.ts spec.json`: run one load and print its result as one JSON line.
const spec = JSON.parse(await readFile(process.argv[2]!, "utf8")) as LoadSpec;
process.stdout.write(`${JSON.stringify(await runLoad(spec))}\n`);
