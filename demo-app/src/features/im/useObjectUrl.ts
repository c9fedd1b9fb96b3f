import { useEffect, useState } from 'react';

/**
 * An object URL for a local file (a preview while it uploads), revoked when the file changes or the component
 * goes; undefined without a file or where the platform has no object URLs.
 */
export function useObjectUrl(file: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(undefined);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}
