import { List, Radio, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import type { PayoutAccounts, PayoutType, Withdrawal, WithdrawalStatus } from './withdrawals';

/** What is bound for `type`, as the choice shows it; undefined when nothing is. */
export function boundText(accounts: PayoutAccounts, type: PayoutType, t: (key: string) => string): string | undefined {
  if (type === 'alipay') {
    return accounts.alipay_account ? `${accounts.alipay_name} ${accounts.alipay_account}` : undefined;
  }
  return accounts.wechat_code ? t('withdraw.wechatBound') : undefined;
}

/** The account a withdrawal form starts on: Alipay, unless only WeChat is bound. */
export const firstPayout = (accounts: PayoutAccounts): PayoutType =>
  accounts.alipay_account || !accounts.wechat_code ? 'alipay' : 'wechat';

/**
 * Alipay or WeChat, each with what is bound and **Bind** or **Change**, which opens the binding page
 * (renwu/tixian_band): shared by coin and seller withdrawal, which pay to the same accounts.
 */
export function PayoutChoice(props: {
  accounts: PayoutAccounts;
  value: PayoutType;
  onChange: (type: PayoutType) => void;
}) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  return (
    <List header={t('withdraw.to')}>
      <Radio.Group value={props.value} onChange={(value) => props.onChange(value as PayoutType)}>
        {(['alipay', 'wechat'] as const).map((method) => {
          const bound = boundText(props.accounts, method, t);
          return (
            <List.Item
              key={method}
              description={bound ?? t('withdraw.notBound')}
              extra={
                <button
                  type="button"
                  className="feedback-mine"
                  onClick={() => open(`renwu/tixian_band?type=${method}`)}
                >
                  {bound === undefined ? t('withdraw.bind') : t('withdraw.change')}
                </button>
              }
            >
              <Radio value={method}>{t(`withdraw.${method}`)}</Radio>
            </List.Item>
          );
        })}
      </Radio.Group>
    </List>
  );
}

const STATUS_COLOR: Record<WithdrawalStatus, 'warning' | 'success' | 'default'> = {
  pending: 'warning',
  paid: 'success',
  rejected: 'default',
};

/**
 * One withdrawal in a list of records: amount and account, when, where its review stands, a rejection's reason;
 * `rejected` names where a rejected one's money went (default: the coins came back).
 */
export function WithdrawalItem({ item, rejected }: { item: Withdrawal; rejected?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <List.Item
      data-testid="withdrawal"
      description={
        <>
          <div>{new Date(item.created_at).toLocaleString(i18n.language)}</div>
          {item.status === 'rejected' && <div>{t('withdraw.reason', { reason: item.reason })}</div>}
        </>
      }
      extra={
        <Tag color={STATUS_COLOR[item.status]}>
          {item.status === 'rejected' && rejected !== undefined ? rejected : t(`withdraw.status_${item.status}`)}
        </Tag>
      }
    >
      {t('withdraw.line', {
        amount: item.amount,
        to: item.type === 'alipay' ? `${t('withdraw.alipay')} ${item.account}` : t('withdraw.wechat'),
      })}
    </List.Item>
  );
}
