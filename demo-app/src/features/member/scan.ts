/** What a scanned code leads to: a page of this app, an outside page, or just text. */
export type ScanTarget = { kind: 'app'; path: string } | { kind: 'web'; url: string } | { kind: 'text'; text: string };

/**
 * Where a scanned code's text leads (`where`: this app's address): a link into this app (the sign-in code of
 * user/scan-login among them) opens its page; another http(s) link opens in the web view; anything else is text.
 */
export function scanTarget(value: string, where: Pick<Location, 'origin' | 'pathname'> = window.location): ScanTarget {
  const text = value.trim();
  const app = `${where.origin}${where.pathname}#/`;
  if (text.startsWith(app)) return { kind: 'app', path: `/${text.slice(app.length)}` };
  if (/^https?:\/\/\S+$/i.test(text)) return { kind: 'web', url: text };
  return { kind: 'text', text };
}

/** The browser's barcode detector, where it has one (`BarcodeDetector`, not in every browser). */
interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

/** A QR code detector, or undefined where the browser cannot scan (no detector, or no camera to ask for). */
export function qrDetector(): Detector | undefined {
  const Barcode = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Barcode || typeof navigator.mediaDevices?.getUserMedia !== 'function') return undefined;
  return new Barcode({ formats: ['qr_code'] });
}
