import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, List, Radio } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCart } from '../../app/cart';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QueryView } from '../../features/api/QueryView';
import { ApiError, isRefusal } from '../../features/api/request';
import { ADDRESSES_QUERY, addressList, type Address } from '../../features/member/addresses';
import { AddressLines } from '../../features/shop/OrderCard';
import {
  ORDERS_QUERY,
  PAYMENT_ITEMS_PARAM,
  linesTotal,
  parsePaymentItems,
  payByBalance,
  payByProvider,
  placeOrders,
  type OrderLine,
} from '../../features/shop/orders';
import { PRODUCTS_QUERY } from '../../features/shop/products';
import { useProductLines, type ProductLine } from '../../features/shop/useProductLines';
import { WALLET_QUERY, goToPayment, wallet, yuan, type RechargeType } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';

/**
 * Where paying stands: not tried; under way; refused by `shop/code`, so nothing was placed; or placed as `code` but
 * not paid, so the orders wait for payment in My orders and paying again pays that code.
 */
type PayState =
  | { kind: 'ready' }
  | { kind: 'busy' }
  | { kind: 'refused'; error: unknown }
  | { kind: 'unpaid'; code: string; error: unknown };

/** Refusals of `shop/code` that the cart can mend. */
const MEND_IN_CART: ReadonlySet<string> = new Set(['product_missing', 'stock_insufficient', 'order_items_invalid']);

/**
 * What went wrong paying, and the way on: nothing placed (the server's reason, else "get order error"; back to the cart
 * when it can mend it, to the orders when too many wait); or placed but not paid (the reason, that the orders wait in
 * My orders, and a recharge when the balance is short).
 */
function PayNotice({ state }: { state: PayState }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  if (state.kind !== 'refused' && state.kind !== 'unpaid') return null;
  const code = isRefusal(state.error) ? state.error.code : undefined;
  const orders = (
    <Button size="small" onClick={() => open('shop/user-order?status=unpaid')}>
      {t('order.viewOrders')}
    </Button>
  );
  if (state.kind === 'refused') {
    return (
      <div className="order-notice" role="alert">
        <p>{(code !== undefined && errorText(state.error, t)) || t('order.codeError')}</p>
        <div className="order-notice-actions">
          {code !== undefined && MEND_IN_CART.has(code) && (
            <Button size="small" onClick={() => open('shop/cart')}>
              {t('order.backToCart')}
            </Button>
          )}
          {code === 'order_pending' && orders}
        </div>
      </div>
    );
  }
  return (
    <div className="order-notice" role="alert">
      <p>{errorText(state.error, t)}</p>
      <p>{t('order.unpaidHint')}</p>
      <div className="order-notice-actions">
        {code === 'balance_insufficient' && (
          <Button size="small" color="primary" onClick={() => open('member/recharge')}>
            {t('order.recharge')}
          </Button>
        )}
        {orders}
      </div>
    </div>
  );
}

/** Where the orders go: the member's default address, or a way to add one. */
function ShippingAddress({ address }: { address: Address | undefined }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  if (!address) {
    return (
      <List.Item
        description={t('order.addressNone')}
        onClick={() => open('member/address-add')}
        data-testid="address-none"
      >
        {t('order.addAddress')}
      </List.Item>
    );
  }
  return (
    <List.Item onClick={() => open('member/address')} extra={t('order.manageAddresses')}>
      <AddressLines address={address} />
    </List.Item>
  );
}

/** The products being bought, each as `shop/view` gives it now, with how many. */
function Lines({ lines, products }: { lines: readonly OrderLine[]; products: readonly ProductLine[] }) {
  const { t } = useTranslation();
  return (
    <ul className="cart-lines">
      {products.map((product, index) => (
        <li key={product.id} className="cart-line" data-testid="payment-line">
          {product.kind === 'ready' && <img className="product-thumb" src={product.product.images[0]} alt="" />}
          <div className="cart-line-body">
            {product.kind === 'ready' ? (
              <>
                <span className="cart-line-title">{product.product.title}</span>
                <span className="order-item-line">
                  {t('order.line', { price: yuan(product.product.price), num: lines[index]?.num ?? 1 })}
                </span>
              </>
            ) : (
              product.kind !== 'loading' && <span className="cart-line-unavailable">{errorText(product.error, t)}</span>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** How the member chose to pay: from the balance, or on a provider's page. */
type PayWay = 'balance' | RechargeType;

/** The ways to pay: the balance (showing it), then each provider the server has set up. */
function PayWays({
  way,
  providers,
  balance,
  onChange,
}: {
  way: PayWay;
  providers: readonly RechargeType[];
  balance: number | undefined;
  onChange: (way: PayWay) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group value={way} onChange={(value) => onChange(value as PayWay)}>
      <List header={t('order.payMethod')}>
        <List.Item
          extra={<span data-testid="balance">{balance === undefined ? '…' : yuan(balance)}</span>}
          prefix={<Radio value="balance" aria-label={t('order.balance')} />}
        >
          {t('order.balance')}
        </List.Item>
        {providers.map((provider) => (
          <List.Item key={provider} prefix={<Radio value={provider} aria-label={t(`wallet.${provider}`)} />}>
            {t(`wallet.${provider}`)}
          </List.Item>
        ))}
      </List>
    </Radio.Group>
  );
}

/**
 * Payment (spec §2 shop/payment, §4 "Payment flow: fetch an order code, then pay by balance, by a card/wallet
 * provider, or by in-browser payment"): the products of param `items` with their total, the default shipping address,
 * and the ways to pay: the wallet's balance, or each provider the server has set up (`member/money`'s `providers`).
 * `shop/code` places the orders, then `shop/pay_payment` pays them: by balance at once, and then the products leave
 * the cart and shop/success opens; by a provider on its page, which the app leaves for (the products leave the cart:
 * the orders hold them) and which comes back to shop/success, where the payment is asked after.
 */
export default function Payment() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const cart = useCart();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const param = params.get(PAYMENT_ITEMS_PARAM);
  const lines = useMemo(() => parsePaymentItems(param), [param]);
  const products = useProductLines(useMemo(() => lines?.map((line) => line.id) ?? [], [lines]));
  const [state, setState] = useState<PayState>({ kind: 'ready' });
  const [way, setWay] = useState<PayWay>('balance');
  const context = { token: user?.token, locale: i18n.language };
  const addresses = useQuery({
    queryKey: [ADDRESSES_QUERY, user?.id],
    queryFn: () => addressList(context),
    enabled: user !== null,
  });
  const balance = useQuery({
    queryKey: [WALLET_QUERY, user?.id, 'money'],
    queryFn: () => wallet(context),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  if (!lines) {
    return (
      <div className="page">
        <NavBar title={t('order.paymentTitle')} />
        <ErrorBlock status="default" title={t('errors.order_items_invalid')} description="" />
      </div>
    );
  }

  const address = addresses.data?.find((item) => item.is_default) ?? addresses.data?.[0];
  const ready = products.every((product) => product.kind === 'ready');
  const total = linesTotal(
    products.flatMap((product, index) =>
      product.kind === 'ready' ? [{ price: product.product.price, num: lines[index]?.num ?? 1 }] : [],
    ),
  );

  /** A payment of `code` refused: its orders wait unpaid, or, gone (cancelled, expired), the next try places anew. */
  const notPaid = async (code: string, error: unknown) => {
    const gone = isRefusal(error) && (error.code === 'order_state' || error.code === 'order_missing');
    setState(gone ? { kind: 'refused', error } : { kind: 'unpaid', code, error });
    await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
  };

  const pay = async () => {
    if (!address) return;
    let code = state.kind === 'unpaid' ? state.code : undefined;
    setState({ kind: 'busy' });
    if (code === undefined) {
      try {
        code = (await placeOrders({ items: lines, address: address.id }, context)).code;
      } catch (error) {
        setState({ kind: 'refused', error });
        return;
      }
    }
    if (way !== 'balance') {
      await payAtProvider(code, way);
      return;
    }
    try {
      await payByBalance(code, context);
    } catch (error) {
      await notPaid(code, error);
      return;
    }
    cart.remove(lines.map((line) => line.id));
    // Stock, the balance and the orders all changed.
    for (const key of [ORDERS_QUERY, WALLET_QUERY, PRODUCTS_QUERY]) {
      void queryClient.invalidateQueries({ queryKey: [key] });
    }
    void navigate(`/shop/success?${new URLSearchParams({ code }).toString()}`, { replace: true });
  };

  /** Leaves for the provider's page that pays the orders of `code`; a refusal leaves them waiting, as above. */
  const payAtProvider = async (code: string, provider: RechargeType) => {
    let payUrl: string;
    try {
      payUrl = (await payByProvider(code, provider, context)).pay_url;
    } catch (error) {
      await notPaid(code, error);
      return;
    }
    cart.remove(lines.map((line) => line.id));
    void queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
    if (!goToPayment(payUrl)) {
      const error = new ApiError('pay_page_unavailable', 'not a payment page', { refused: true });
      setState({ kind: 'unpaid', code, error });
    }
  };

  return (
    <div className="page">
      <NavBar title={t('order.paymentTitle')} />
      <List header={t('order.address')}>
        <QueryView query={addresses}>{() => <ShippingAddress address={address} />}</QueryView>
      </List>
      <Lines lines={lines} products={products} />
      <PayWays way={way} providers={balance.data?.providers ?? []} balance={balance.data?.balance} onChange={setWay} />
      <PayNotice state={state} />
      <div className="cart-bar">
        <span className="cart-bar-total" data-testid="payment-total">
          {t('order.total', { amount: yuan(total) })}
        </span>
        <Button
          color="primary"
          loading={state.kind === 'busy'}
          disabled={!address || !ready}
          onClick={() => void pay()}
        >
          {way === 'balance' ? t('order.payByBalance') : t('order.payWith', { method: t(`wallet.${way}`) })}
        </Button>
      </div>
    </div>
  );
}
