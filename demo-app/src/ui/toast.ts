import { Toast } from 'antd-mobile';

/** Toast durations (spec §9): 1.5 s by default, 2 s for errors, which take longer to read. */
export const TOAST_MS = { info: 1500, error: 2000 } as const;

/** Shows a short message. */
export function toast(content: string): void {
  Toast.show({ content, duration: TOAST_MS.info });
}

/** Shows an error message. */
export function toastError(content: string): void {
  Toast.show({ content, icon: 'fail', duration: TOAST_MS.error });
}
