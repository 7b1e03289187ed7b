/**
 * The code writer of the emitters: code-block-writer 13's behaviour for the methods they call
 * (`write`, `writeLine`, `newLine`, `blankLine`, `indent`, `block`, `inlineBlock`), with its
 * options fixed to 2 spaces, LF and no queued indentation. Like it, a line is indented only when
 * it does not start inside a string or template literal, which needs the same scan of every
 * character for comments, strings and regular expressions, kept here in plain fields: the last
 * two characters written instead of a walk back over the written pieces, the characters that matter
 * found by a regular expression instead of a test of each one. Same output, a fraction of the CPU
 * (bench/README.md, "Build", sixth round).
 */

const BACK_SLASH = 92;
const FORWARD_SLASH = 47;
const NEW_LINE = 10;
const CARRIAGE_RETURN = 13;
const ASTERISK = 42;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACK_TICK = 96;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const DOLLAR_SIGN = 36;
const SPACE = 32;
/** No character: before the first one written (code-block-writer's `undefined`). */
const NONE = -1;

/**
 * The characters that can change the scan's state (code-block-writer's `isCharToHandle`): found by the
 * regular expression engine, so that the loop runs for them only (≈ 5 % of the characters of emitted code).
 */
const HANDLED = /[\\/\n\r*"'`{}]/g;

/** Indentation by level, made once per level. */
const INDENTS: string[] = [""];
const LINE_BREAK = /\r?\n/;

/** No comment, a `//` comment, a block comment. */
type Comment = 0 | 1 | 2;

export class CodeWriter {
  private readonly texts: string[] = [];
  private length = 0;
  /** The last and the second-to-last character written, or `NONE`. */
  private last = NONE;
  private beforeLast = NONE;
  private level = 0;
  private newLineOnNextWrite = false;
  private comment: Comment = 0;
  private readonly strings: number[] = [];
  private inRegExp = false;

  /** Writes text; each line it starts is indented, unless it starts inside a string. */
  write(text: string): this {
    this.flushNewLine();
    this.writeIndenting(text);
    return this;
  }

  /** Writes text on a line of its own. */
  writeLine(text: string): this {
    this.flushNewLine();
    if (this.last !== NONE) this.newLineIfLastNot();
    this.writeIndenting(text);
    this.newLine();
    return this;
  }

  newLine(): this {
    this.newLineOnNextWrite = false;
    this.baseNewLine();
    return this;
  }

  newLineIfLastNot(): this {
    this.flushNewLine();
    if (!this.isLastNewLine()) this.newLine();
    return this;
  }

  blankLine(): this {
    return this.newLineIfLastNot().newLine();
  }

  /** Writes what `block` writes one level deeper, on lines of its own. */
  indent(block: () => void): this {
    this.indentBlock(block);
    if (!this.isLastNewLine()) this.newLineOnNextWrite = true;
    return this;
  }

  /** ` {`, the block one level deeper, `}`, then a line break before whatever comes next. */
  block(block: () => void): this {
    this.flushNewLine();
    if (this.length > 0 && !this.isLastNewLine()) {
      this.flushNewLine();
      if (this.last !== SPACE) this.writeIndenting(" ");
    }
    this.inlineBlock(block);
    this.newLineOnNextWrite = true;
    return this;
  }

  /** `{`, the block one level deeper, `}`. */
  inlineBlock(block: () => void): this {
    this.flushNewLine();
    this.write("{");
    this.indentBlock(block);
    this.newLineIfLastNot().write("}");
    return this;
  }

  toString(): string {
    if (this.texts.length > 1) {
      const text = this.texts.join("");
      this.texts.length = 0;
      this.texts.push(text);
    }
    return this.texts[0] ?? "";
  }

  private isLastNewLine(): boolean {
    return this.last === NEW_LINE || this.last === CARRIAGE_RETURN;
  }

  private isInString(): boolean {
    const n = this.strings.length;
    return n > 0 && this.strings[n - 1] !== OPEN_BRACE;
  }

  private flushNewLine(): void {
    if (!this.newLineOnNextWrite) return;
    this.newLineOnNextWrite = false;
    this.newLine();
  }

  private indentBlock(block: () => void): void {
    if (this.last !== NONE) this.newLineIfLastNot();
    this.level++;
    block();
    this.level = Math.max(0, this.level - 1);
  }

  private writeIndenting(text: string): void {
    if (text.length === 0) {
      this.writePiece("");
      return;
    }
    const pieces = text.split(LINE_BREAK);
    for (let i = 0; i < pieces.length; i++) {
      if (i > 0) this.baseNewLine();
      const piece = pieces[i]!;
      if (piece.length > 0) this.writePiece(piece);
    }
  }

  private writePiece(piece: string): void {
    if (!this.isInString() && (this.isLastNewLine() || this.last === NONE)) {
      INDENTS[this.level] ??= "  ".repeat(this.level);
      this.push(INDENTS[this.level]!);
    }
    this.scan(piece);
    this.push(piece);
  }

  private baseNewLine(): void {
    if (this.comment === 1) this.comment = 0;
    const top = this.strings[this.strings.length - 1];
    if ((top === DOUBLE_QUOTE || top === SINGLE_QUOTE) && this.last !== BACK_SLASH) this.strings.pop();
    this.push("\n");
  }

  private push(text: string): void {
    const n = text.length;
    if (n === 0) return;
    this.texts.push(text);
    this.length += n;
    if (n === 1) {
      this.beforeLast = this.last;
      this.last = text.charCodeAt(0);
    } else {
      this.beforeLast = text.charCodeAt(n - 2);
      this.last = text.charCodeAt(n - 1);
    }
  }

  /** code-block-writer's `_updateInternalState`: comments, strings, template literals, regular expressions. */
  private scan(text: string): void {
    HANDLED.lastIndex = 0;
    for (let found = HANDLED.exec(text); found !== null; found = HANDLED.exec(text)) {
      const i = found.index;
      const c = text.charCodeAt(i);
      const past = i === 0 ? this.last : text.charCodeAt(i - 1);
      const pastPast = i === 0 ? this.beforeLast : i === 1 ? this.last : text.charCodeAt(i - 2);
      if (this.inRegExp) {
        if ((past === FORWARD_SLASH && pastPast !== BACK_SLASH) || past === NEW_LINE) this.inRegExp = false;
        else continue;
      } else if (
        !this.isInString() &&
        this.comment === 0 &&
        past === FORWARD_SLASH &&
        c !== FORWARD_SLASH &&
        c !== ASTERISK &&
        pastPast !== ASTERISK &&
        pastPast !== FORWARD_SLASH
      ) {
        this.inRegExp = true;
        continue;
      }
      if (!this.isInString()) {
        if (this.comment === 0 && past === FORWARD_SLASH && c === FORWARD_SLASH) this.comment = 1;
        else if (this.comment === 0 && past === FORWARD_SLASH && c === ASTERISK) this.comment = 2;
        else if (this.comment === 2 && past === ASTERISK && c === FORWARD_SLASH) this.comment = 0;
      }
      if (this.comment !== 0) continue;
      const strings = this.strings;
      const top = strings.length === 0 ? undefined : strings[strings.length - 1];
      if (past !== BACK_SLASH && (c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === BACK_TICK)) {
        if (top === c) strings.pop();
        else if (top === OPEN_BRACE || top === undefined) strings.push(c);
      } else if (pastPast !== BACK_SLASH && past === DOLLAR_SIGN && c === OPEN_BRACE && top === BACK_TICK) {
        strings.push(c);
      } else if (c === CLOSE_BRACE && top === OPEN_BRACE) {
        strings.pop();
      }
    }
  }
}
