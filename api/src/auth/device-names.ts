// A sign-in's device in words, from the User-Agent it began with: "Chrome on Linux", "Safari on
// iPhone". A few patterns of our own, checked in order (Edge and Opera say "Chrome" too, every
// Chromium browser says "Safari", Android says "Linux"): no outside service, and no place.

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChromium\//, "Chromium"],
  [/\bChrome\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

export const UNKNOWN_DEVICE = "Unknown device";

const first = (patterns: readonly [RegExp, string][], text: string) => patterns.find(([pattern]) => pattern.test(text))?.[1];

/** The device a User-Agent names, in words; "Unknown device" when it names neither a browser nor a system. */
export function deviceOf(userAgent: string | undefined): string {
  const text = (userAgent ?? "").slice(0, 512);
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser && system) return `${browser} on ${system}`;
  if (system) return `A browser on ${system}`;
  return browser ?? UNKNOWN_DEVICE;
}
