/** How many characters a text holds against the most it may, shown under its field, in red past the most. */
export function CharCount({ length, max }: { length: number; max: number }) {
  return (
    <div className={length > max ? 'feedback-count feedback-count-over' : 'feedback-count'}>
      {length}/{max}
    </div>
  );
}
