/** Compress every text file under `dir` (.br and .gz beside it). */
export function precompress(dir: string): { file: string; bytes: number; br: number; gz: number }[];
