import '../../pages/shop/shop.css';

/** A shop's head: its icon, name and description (the seller's home and the shop's page). */
export function ShopHead({ shop }: { shop: { icon: string; name: string; intro: string } }) {
  return (
    <section className="shop-head">
      <div className="shop-head-icon">
        <img src={shop.icon} alt="" />
      </div>
      <div>
        <h2>{shop.name}</h2>
        <p>{shop.intro}</p>
      </div>
    </section>
  );
}
