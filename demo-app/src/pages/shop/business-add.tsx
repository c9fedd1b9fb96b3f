import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, List, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ImageGrid } from '../../features/api/ImageGrid';
import { useImageUpload } from '../../features/api/useImageUpload';
import { PRODUCTS_QUERY, PRODUCT_LIMITS, addProduct, categories, productProblem } from '../../features/shop/products';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../member/feedback.css';

/**
 * Add a product (spec §2 shop/business-add, §5 "Adding a product needs images, title, price, classification, stock and
 * details"): each field checked before sending, in that order; added, it is to be reviewed and the seller's list
 * opens.
 */
export default function AddProduct() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uploader = useImageUpload();
  const [imgs, setImgs] = useState<string[]>([]);
  const [title, setTitle] = useState('');
  const [price, setPrice] = useState('');
  const [typeid, setTypeid] = useState<string | undefined>();
  const [stock, setStock] = useState('');
  const [content, setContent] = useState('');
  const [sending, setSending] = useState(false);
  const kinds = useQuery({
    queryKey: [PRODUCTS_QUERY, 'categories'],
    queryFn: () => categories({ locale: i18n.language }),
    enabled: true,
  }).data;
  if (!user) return null;

  const send = async () => {
    const problem = productProblem({ imgs, title, price, typeid, stock, content });
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    try {
      const draft = {
        imgs,
        title: title.trim(),
        price: Number(price.trim()),
        typeid: typeid as string,
        stock: Number(stock.trim()),
        content: content.trim(),
      };
      await addProduct(draft, { token: user.token, locale: i18n.language });
      toast(t('product.added'));
      await queryClient.invalidateQueries({ queryKey: [PRODUCTS_QUERY] });
      void navigate('/shop/business-list', { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="page">
      <NavBar title={t('shop.addProduct')} />
      <List header={t('product.images', { max: PRODUCT_LIMITS.imagesMax })}>
        <List.Item>
          <ImageGrid
            uploader={uploader}
            images={imgs}
            onChange={setImgs}
            max={PRODUCT_LIMITS.imagesMax}
            labels={{
              image: (n) => t('product.image', { n }),
              remove: (n) => t('product.removeImage', { n }),
              add: t('product.addImage'),
            }}
            progressTestId="product-progress"
          />
        </List.Item>
      </List>
      <List>
        <List.Item title={<label htmlFor="product-title">{t('product.name')}</label>}>
          <Input
            id="product-title"
            value={title}
            onChange={setTitle}
            maxLength={PRODUCT_LIMITS.titleMax}
            placeholder={t('product.namePlaceholder', { max: PRODUCT_LIMITS.titleMax })}
          />
        </List.Item>
        <List.Item title={<label htmlFor="product-price">{t('product.price')}</label>}>
          <Input id="product-price" inputMode="decimal" value={price} onChange={setPrice} placeholder="0.00" />
        </List.Item>
        <List.Item title={<label htmlFor="product-stock">{t('product.stockLabel')}</label>}>
          <Input id="product-stock" inputMode="numeric" value={stock} onChange={setStock} placeholder="0" />
        </List.Item>
      </List>
      <List header={t('product.category')}>
        <List.Item>
          <Selector
            options={(kinds ?? []).map((kind) => ({ label: kind.name, value: kind.id }))}
            value={typeid === undefined ? [] : [typeid]}
            onChange={(value) => setTypeid(value[0])}
          />
        </List.Item>
      </List>
      <List header={<label htmlFor="product-content">{t('product.details')}</label>}>
        <List.Item>
          <TextArea
            id="product-content"
            value={content}
            onChange={setContent}
            maxLength={PRODUCT_LIMITS.contentMax}
            showCount
            autoSize={{ minRows: 4, maxRows: 12 }}
            placeholder={t('product.detailsPlaceholder')}
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button
          block
          color="primary"
          loading={sending}
          disabled={uploader.progress !== undefined}
          onClick={() => void send()}
        >
          {t('product.submit')}
        </Button>
      </div>
    </div>
  );
}
