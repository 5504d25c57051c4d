/** "Maya Chen" → "MC": the avatar when an expert has no photo. Apart from the card so the landing page does not load the listing's card. */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}
