//! A tiny evaluator of the lesson's substituted formulas.

/// A tiny evaluator of what the lesson writes with the numbers in place
/// (English digits: `,` groups thousands, `.` is the decimal point, `;`
/// separates arguments): `+ − × /`, parentheses, `⌈ ⌉`, `⌊ ⌋`, `min`,
/// `max`, and a square `²`.
pub struct Eval<'a> {
    chars: Vec<char>,
    at: usize,
    text: &'a str,
}

impl Eval<'_> {
    fn new(text: &str) -> Eval<'_> {
        Eval {
            chars: text.chars().filter(|c| !c.is_whitespace()).collect(),
            at: 0,
            text,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) {
        assert!(self.eat(c), "expected {c} at {} in {}", self.at, self.text);
    }

    fn expr(&mut self) -> f64 {
        let mut v = self.term();
        loop {
            if self.eat('+') {
                v += self.term();
            } else if self.eat('−') {
                v -= self.term();
            } else {
                return v;
            }
        }
    }

    fn term(&mut self) -> f64 {
        let mut v = self.factor();
        loop {
            if self.eat('×') {
                v *= self.factor();
            } else if self.eat('/') {
                v /= self.factor();
            } else {
                return v;
            }
        }
    }

    fn factor(&mut self) -> f64 {
        let v = self.primary();
        if self.eat('²') {
            v * v
        } else {
            v
        }
    }

    fn call(&mut self, f: fn(f64, f64) -> f64) -> f64 {
        self.expect('(');
        let mut v = self.expr();
        while self.eat(';') {
            v = f(v, self.expr());
        }
        self.expect(')');
        v
    }

    fn primary(&mut self) -> f64 {
        let rest: String = self.chars[self.at..].iter().take(3).collect();
        if rest == "min" {
            self.at += 3;
            return self.call(f64::min);
        }
        if rest == "max" {
            self.at += 3;
            return self.call(f64::max);
        }
        if self.eat('(') {
            let v = self.expr();
            self.expect(')');
            return v;
        }
        if self.eat('⌈') {
            let v = self.expr();
            self.expect('⌉');
            return v.ceil();
        }
        if self.eat('⌊') {
            let v = self.expr();
            self.expect('⌋');
            return v.floor();
        }
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || c == ',' || c == '.')
        {
            self.at += 1;
        }
        let number: String = self.chars[start..self.at]
            .iter()
            .filter(|c| **c != ',')
            .collect();
        number
            .parse()
            .unwrap_or_else(|_| panic!("a number at {start} in {}", self.text))
    }

    pub fn value(text: &str) -> f64 {
        let mut e = Eval::new(text);
        let v = e.expr();
        assert_eq!(e.at, e.chars.len(), "left over in {text}");
        v
    }
}
