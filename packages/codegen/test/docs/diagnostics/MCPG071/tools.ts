/** A bank's tools; each method is a tool. */
export class Bank {
  constructor(private readonly rate: number) {}

  /** The interest on an amount for one year. */
  interest(amount: number): number {
    return amount * this.rate;
  }
}
