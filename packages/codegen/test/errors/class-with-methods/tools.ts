export class Account {
  balance = 0;
  deposit(amount: number): void {
    this.balance += amount;
  }
}

/** Takes a class instance. */
export function open_account(account: Account): void {
  void account;
}
