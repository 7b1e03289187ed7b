/** Takes a callback. */
export function on_event(name: string, callback: (value: number) => void): void {
  callback(name.length);
}
