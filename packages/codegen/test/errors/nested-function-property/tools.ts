interface Handler {
  name: string;
  /** Called on change. */
  onChange: (value: string) => void;
}

/** A nested property is a function. */
export function register(handlers: Handler[]): void {
  void handlers;
}
