/**
 * The key page's chart code (Recharts), loaded when the page opens, while the key and its usage
 * are read. Not React.lazy: a lazy component suspends on its first render even when its code has
 * arrived, and React then holds the revealed chart back for 300 ms.
 */
import { useEffect, useState } from 'react';

const loadKeyUsageChart = () => import('./key-usage-chart.js');
type KeyUsageChart = Awaited<ReturnType<typeof loadKeyUsageChart>>['default'];

export interface LoadedChart {
  Chart: KeyUsageChart | null;
  failed: boolean;
}

export function useKeyUsageChart(): LoadedChart {
  const [loaded, setLoaded] = useState<LoadedChart>({ Chart: null, failed: false });
  useEffect(() => {
    let current = true;
    loadKeyUsageChart().then(
      (module) => {
        if (current) setLoaded({ Chart: module.default, failed: false });
      },
      () => {
        if (current) setLoaded({ Chart: null, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, []);
  return loaded;
}
