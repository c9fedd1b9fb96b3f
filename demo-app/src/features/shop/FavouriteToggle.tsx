import { useQueryClient } from '@tanstack/react-query';
import { useThrottled } from '../../ui/useThrottled';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { LOGIN_PATH, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { MARKS_QUERY, keepProduct } from './marks';
import { productViewKey, type ProductPage } from './products';
import './marks.css';

/**
 * The heart under a product (spec §2 shop/shoucang, favourites), filled when the member keeps it: a tap keeps it or
 * lets it go and says so, or says why not (`favourite_limit`, `product_missing`). A visitor is asked to sign in, and
 * comes back to the product after.
 */
export function FavouriteToggle({ product }: { product: ProductPage['product'] }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const kept = product.collected;

  const toggle = useThrottled(async () => {
    if (!user) {
      const redirect = `${location.pathname}${location.search}`;
      return open(`${LOGIN_PATH}?${new URLSearchParams({ redirect }).toString()}`);
    }
    setSending(true);
    try {
      const collected = await keepProduct(product.id, !kept, { token: user.token, locale: i18n.language });
      queryClient.setQueryData<ProductPage>(productViewKey(product.id, user.id), (old) =>
        old ? { ...old, product: { ...old.product, collected } } : old,
      );
      toast(collected ? t('favourite.added') : t('favourite.cancelled'));
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
    await queryClient.invalidateQueries({ queryKey: [MARKS_QUERY, 'favourites'] });
  });

  return (
    <button
      type="button"
      className="mark-toggle"
      data-kept={kept}
      aria-label={kept ? t('favourite.cancel') : t('favourite.add')}
      disabled={sending}
      onClick={() => void toggle()}
    >
      <span aria-hidden="true">{kept ? '♥' : '♡'}</span>
    </button>
  );
}
