/** How many decimal places results keep. */
export const PRECISION = 2;
