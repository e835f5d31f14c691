// Go's sort.SliceStable, step for step: insertion sort on blocks of 20, then
// SymMerge (Kim & Kutzner) passes. strategicpatch orders list items with a
// "less" that is not a strict order when an item is missing from the order
// list (it answers true both ways), and there the result depends on the exact
// algorithm, so Array.prototype.sort (also stable) is not enough.

export function goSliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const n = data.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(data, less, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(data, less, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(data, less, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(data, less, a, m, n);
    blockSize *= 2;
  }
}

function swap<T>(data: T[], i: number, j: number): void {
  const t = data[i]!;
  data[i] = data[j]!;
  data[j] = t;
}

function insertionSort<T>(data: T[], less: (a: T, b: T) => boolean, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(data[j]!, data[j - 1]!); j--) swap(data, j, j - 1);
  }
}

/** Merges the sorted runs data[a:m] and data[m:b] in place. */
function symMerge<T>(data: T[], less: (a: T, b: T) => boolean, a: number, m: number, b: number): void {
  if (m - a === 1) {
    // Binary-search where data[a] goes in data[m:b], then rotate it there.
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (less(data[h]!, data[a]!)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) swap(data, k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!less(data[m]!, data[h]!)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) swap(data, k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!less(data[p - c]!, data[c]!)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(data, start, m, end);
  if (a < start && start < mid) symMerge(data, less, a, start, mid);
  if (mid < end && end < b) symMerge(data, less, mid, end, b);
}

/** Rotates data[a:m] and data[m:b] so that data[m:b] comes first. */
function rotate<T>(data: T[], a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(data, m - i, m, j);
      i -= j;
    } else {
      swapRange(data, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(data, m - i, m, i);
}

function swapRange<T>(data: T[], a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) swap(data, a + i, b + i);
}
