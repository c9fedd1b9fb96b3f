import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, List, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import {
  ADDRESSES_QUERY,
  ADDRESS_BOUNDS,
  addressList,
  addressProblem,
  saveAddress,
  type Address,
  type AddressDraft,
} from '../../features/member/addresses';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';

const EMPTY: AddressDraft = { name: '', phone: '', region: '', detail: '', isDefault: false };

/** The form, filled with `address` when editing one. */
function AddressForm({ address }: { address: Address | undefined }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<AddressDraft>(
    address
      ? {
          name: address.name,
          phone: address.phone,
          region: address.region,
          detail: address.detail,
          isDefault: address.is_default,
        }
      : EMPTY,
  );
  const [saving, setSaving] = useState(false);
  if (!user) return null;
  const field = (key: 'name' | 'phone' | 'region' | 'detail') => (value: string) =>
    setDraft((current) => ({ ...current, [key]: value }));

  const save = async () => {
    const problem = addressProblem(draft);
    if (problem)
      return toastError(t(`address.${problem}Invalid`, { max: problem === 'phone' ? 0 : ADDRESS_BOUNDS[problem] }));
    setSaving(true);
    try {
      const list = await saveAddress(draft, address?.id, { token: user.token, locale: i18n.language });
      queryClient.setQueryData([ADDRESSES_QUERY, user.id], list);
      toast(t('profile.saved'));
      close();
    } catch (error) {
      toastError(errorText(error, t));
      setSaving(false);
    }
  };

  const input = (key: 'name' | 'phone' | 'region' | 'detail') => (
    <List.Item key={key} title={t(`address.${key}`)}>
      <Input
        aria-label={t(`address.${key}`)}
        placeholder={t(`address.${key}Placeholder`)}
        value={draft[key]}
        onChange={field(key)}
        type={key === 'phone' ? 'tel' : 'text'}
        clearable
      />
    </List.Item>
  );

  return (
    <>
      <List>
        {input('name')}
        {input('phone')}
        {input('region')}
        {input('detail')}
        <List.Item
          extra={
            <Switch
              aria-label={t('address.setDefault')}
              checked={draft.isDefault}
              onChange={(isDefault) => setDraft((current) => ({ ...current, isDefault }))}
            />
          }
        >
          {t('address.setDefault')}
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={saving} onClick={() => void save()}>
          {t('profile.save')}
        </Button>
      </div>
    </>
  );
}

/** Adding a shipping address, or editing one (`?id=`) (spec §2 member/address-add). */
export default function AddressEditor() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? undefined;
  const list = useQuery({
    queryKey: [ADDRESSES_QUERY, user?.id],
    queryFn: () => addressList({ token: user?.token, locale: i18n.language }),
    enabled: user !== null && id !== undefined,
  });
  const address = id === undefined ? undefined : list.data?.find((a) => a.id === id);
  return (
    <div className="page">
      <NavBar title={id === undefined ? t('address.add') : t('address.editTitle')} />
      {id !== undefined && list.isPending ? (
        <DelayedLoading />
      ) : id !== undefined && !address ? (
        <p className="page-pad muted">{list.isError ? errorText(list.error, t) : t('errors.address_missing')}</p>
      ) : (
        <AddressForm key={address?.id ?? 'new'} address={address} />
      )}
    </div>
  );
}
