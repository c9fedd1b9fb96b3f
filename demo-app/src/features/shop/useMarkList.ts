import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { usePagedList } from '../api/paged';
import { MARKS_QUERY, markPage, unmarkProducts, type MarkList } from './marks';
import { PRODUCTS_QUERY } from './products';

/**
 * The member's `list` of products (favourites or browsing history) read a page at a time, the latest first, as a
 * {@link usePagedList} list (for `PagedList`), and `remove`, which takes products out of it (`'all'`: every one),
 * says so with `done` or with the refusal, then reads the list again; it resolves with whether they were taken out.
 */
export function useMarkList(list: MarkList) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const paged = usePagedList([MARKS_QUERY, list, user?.id], (before) => markPage(list, before, context), user !== null);

  const remove = async (ids: readonly string[] | 'all', done: string): Promise<boolean> => {
    let removed = false;
    try {
      await unmarkProducts(list, ids, context);
      toast(done);
      removed = true;
    } catch (error) {
      toastError(errorText(error, t));
    }
    // Read again either way: part of a long removal may have gone through before a failure.
    await queryClient.invalidateQueries({ queryKey: [MARKS_QUERY, list] });
    // A product's page says whether it is a favourite.
    if (list === 'favourites') await queryClient.invalidateQueries({ queryKey: [PRODUCTS_QUERY, 'view'] });
    return removed;
  };

  return { list: paged, remove };
}
