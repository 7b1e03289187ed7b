/** Template literal types are not supported. */
export function greet(id: `user-${string}`): void {
  void id;
}
