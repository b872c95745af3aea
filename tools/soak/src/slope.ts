/** Least-squares line through (x, y) points: its slope, and the slope's standard error. */
export interface Fit {
  slope: number;
  standardError: number;
  points: number;
}

export function leastSquares(points: Array<{ x: number; y: number }>): Fit | null {
  const usable = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const n = usable.length;
  if (n < 3) return null;
  const meanX = usable.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = usable.reduce((sum, p) => sum + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of usable) {
    sxx += (p.x - meanX) ** 2;
    sxy += (p.x - meanX) * (p.y - meanY);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const residuals = usable.reduce((sum, p) => sum + (p.y - (intercept + slope * p.x)) ** 2, 0);
  return { slope, standardError: Math.sqrt(residuals / (n - 2) / sxx), points: n };
}
