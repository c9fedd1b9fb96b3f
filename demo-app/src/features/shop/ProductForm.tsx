import { useQuery } from '@tanstack/react-query';
import { Button, Input, List, Selector, TextArea } from 'antd-mobile';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { ImageGrid } from '../api/ImageGrid';
import { useImageUpload } from '../api/useImageUpload';
import {
  PRODUCTS_QUERY,
  PRODUCT_LIMITS,
  categories,
  productDraft,
  productProblem,
  type ProductDraft,
  type ProductFields,
} from './products';
import './products.css';

/**
 * A product's form, to add one or edit the seller's own: up to 9 images (uploaded as they are picked), the title, the
 * price, the stock, a classification and the details, starting from `initial`. `submit` checks each field in spec
 * §5's order ("images, title, price, classification, stock and details") and hands the draft to `onSubmit`; a
 * refusal it throws is said in a toast. `note`, if any, stands above the button.
 */
export function ProductForm({
  initial,
  submit,
  note,
  onSubmit,
}: {
  initial: ProductFields;
  /** The button's label. */
  submit: string;
  note?: ReactNode;
  onSubmit: (draft: ProductDraft) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const uploader = useImageUpload();
  const [imgs, setImgs] = useState(initial.imgs);
  const [title, setTitle] = useState(initial.title);
  const [price, setPrice] = useState(initial.price);
  const [typeid, setTypeid] = useState(initial.typeid);
  const [stock, setStock] = useState(initial.stock);
  const [content, setContent] = useState(initial.content);
  const [sending, setSending] = useState(false);
  const kinds = useQuery({
    queryKey: [PRODUCTS_QUERY, 'categories'],
    queryFn: () => categories({ locale: i18n.language }),
    enabled: true,
  }).data;

  const send = async () => {
    const fields = { imgs, title, price, typeid, stock, content };
    const problem = productProblem(fields);
    if (problem !== undefined || typeid === undefined) {
      toastError(t(`errors.${problem ?? 'category_missing'}`));
      return;
    }
    setSending(true);
    try {
      await onSubmit(productDraft({ ...fields, typeid }));
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
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
      {note && <p className="muted product-note">{note}</p>}
      <div className="page-actions">
        <Button
          block
          color="primary"
          loading={sending}
          disabled={uploader.progress !== undefined}
          onClick={() => void send()}
        >
          {submit}
        </Button>
      </div>
    </>
  );
}
