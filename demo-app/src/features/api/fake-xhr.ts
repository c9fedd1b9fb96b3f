/**
 * Test support: a stand-in for the browser's XMLHttpRequest, installed with `vi.stubGlobal('XMLHttpRequest',
 * FakeXhr)`, so that a test decides upload progress and the storage's answer. Not part of the app's bundle: only
 * tests import it.
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  static onSend: (() => void) | undefined;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  url = '';
  body: FormData | undefined;
  aborted = false;
  open(_method: string, url: string) {
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
    FakeXhr.onSend?.();
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body = '') {
    this.status = status;
    this.responseText = body;
    this.onload?.();
  }
  /** The posted form as [name, value] pairs, files by name and type. */
  form(): Array<[string, string]> {
    return [...(this.body?.entries() ?? [])].map(([name, value]) => [
      name,
      typeof value === 'string' ? value : `${value.name} (${value.type})`,
    ]);
  }
}

/** Resolves with the XHR once the upload has posted. */
export const posted = () =>
  new Promise<FakeXhr>((resolve) => {
    FakeXhr.onSend = () => resolve(FakeXhr.sent.at(-1) as FakeXhr);
  });
