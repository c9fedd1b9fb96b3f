import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Dialog, ErrorBlock, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import {
  ADDRESSES_QUERY,
  ADDRESS_BOUNDS,
  addressList,
  makeDefaultAddress,
  removeAddress,
  type Address,
} from '../../features/member/addresses';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import './address.css';

/**
 * Shipping addresses (spec §2 member/address, §3 Address): the default first, each with its receiver, phone and
 * address; made the default, edited or deleted in place; a new one added on member/address-add.
 */
export default function Addresses() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const query = useQuery({
    queryKey: [ADDRESSES_QUERY, user?.id],
    queryFn: () => addressList(context),
    enabled: user !== null,
  });
  if (!user) return null;
  const addresses = query.data ?? [];

  /** Runs a change that answers the new list, and shows that list. */
  const change = async (work: () => Promise<Address[]>) => {
    try {
      queryClient.setQueryData([ADDRESSES_QUERY, user.id], await work());
    } catch (error) {
      toastError(errorText(error, t));
    }
  };
  const remove = async (address: Address) => {
    const ok = await Dialog.confirm({
      content: t('address.deleteConfirm'),
      confirmText: t('address.delete'),
      cancelText: t('common.cancel'),
    });
    if (ok) await change(() => removeAddress(address.id, context));
  };

  return (
    <div className="page">
      <NavBar title={t('address.title')} />
      {query.isPending ? (
        <DelayedLoading />
      ) : query.isError ? (
        <ErrorBlock status="default" title={errorText(query.error, t)} description="">
          <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
        </ErrorBlock>
      ) : addresses.length === 0 ? (
        <ErrorBlock status="empty" title={t('address.none')} description="" />
      ) : (
        <List>
          {addresses.map((address) => (
            <List.Item key={address.id} data-testid="address">
              <div className="address-who">
                <span className="address-name">{address.name}</span>
                <span>{address.phone}</span>
                {address.is_default && <Tag color="primary">{t('address.default')}</Tag>}
              </div>
              <div className="address-where">
                {address.region} {address.detail}
              </div>
              <div className="address-actions">
                <Checkbox
                  checked={address.is_default}
                  disabled={address.is_default}
                  onChange={() => void change(() => makeDefaultAddress(address.id, context))}
                >
                  {t('address.setDefault')}
                </Checkbox>
                <span>
                  <Button size="mini" fill="none" onClick={() => void navigate(`/member/address-add?id=${address.id}`)}>
                    {t('address.edit')}
                  </Button>
                  <Button size="mini" fill="none" color="danger" onClick={() => void remove(address)}>
                    {t('address.delete')}
                  </Button>
                </span>
              </div>
            </List.Item>
          ))}
        </List>
      )}
      {query.isSuccess && (
        <div className="page-actions">
          <Button
            block
            color="primary"
            disabled={addresses.length >= ADDRESS_BOUNDS.max}
            onClick={() => void navigate('/member/address-add')}
          >
            {addresses.length >= ADDRESS_BOUNDS.max ? t('address.full', { max: ADDRESS_BOUNDS.max }) : t('address.add')}
          </Button>
        </div>
      )}
    </div>
  );
}
