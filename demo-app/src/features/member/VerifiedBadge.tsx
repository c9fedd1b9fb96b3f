import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/** The badge beside a certified member's name (spec §9: "verified badge 28 units"). */
export function VerifiedBadge() {
  const { t } = useTranslation();
  return (
    <Tag color="primary" fill="outline" className="verified-badge" data-testid="verified">
      {t('home.verified')}
    </Tag>
  );
}
