import { DotLoading } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A loading indicator that appears only after `delayMs` (spec §9: 800 ms), so quick loads do not flash. */
export function DelayedLoading({ delayMs = 800 }: { delayMs?: number }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  if (!shown) return null;
  return (
    <div className="loading" role="status">
      <DotLoading color="primary" />
      <span>{t('common.loading')}</span>
    </div>
  );
}
