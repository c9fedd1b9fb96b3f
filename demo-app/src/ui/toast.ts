import { Toast } from 'antd-mobile';

/** Toast durations (spec §9): 1.5 s by default, 2 s for errors, which take longer to read. */
export const TOAST_MS = { info: 1500, error: 2000 } as const;

/** The toast layer's stacking level (spec §9): above popups, sheets and dialogs (antd-mobile's are about 1 000). */
export const TOAST_Z_INDEX = 10090;

/** Every toast's mask, the loading indicator's too, at {@link TOAST_Z_INDEX}. */
export const maskStyle = { '--z-index': String(TOAST_Z_INDEX) } as const;

/** Shows a short message. */
export function toast(content: string): void {
  Toast.show({ content, duration: TOAST_MS.info, maskStyle });
}

/** Shows an error message. */
export function toastError(content: string): void {
  Toast.show({ content, icon: 'fail', duration: TOAST_MS.error, maskStyle });
}
