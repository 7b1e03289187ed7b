/** An array that also has a named property. */
export interface Page extends Array<string> {
  next: string;
}

/** Arrays with properties have no JSON form. */
export function read_page(page: Page): void {
  void page;
}

/** No value fits a property that the other part's index signature refuses. */
export function merge(value: { name: string } & { [key: string]: number }): void {
  void value;
}

/** A lib type with methods is reported here, not inside TypeScript's lib. */
export function iterate(values: Iterable<string>): void {
  void values;
}

/** Functions, symbols and bigints inside objects too. */
export function nested(options: { onDone: () => void; key: symbol; amount: bigint }): void {
  void options;
}

export class Counter {
  count = 0;
  increment(): void {
    this.count++;
  }
}

/** A class instance with methods. */
export function count(counter: Counter[]): void {
  void counter;
}
