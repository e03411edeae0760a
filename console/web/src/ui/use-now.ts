/** The current time, to the minute, moving on every `periodMs` (keeps query keys stable). */
import { useEffect, useState } from 'react';

const minute = (time: number) => Math.floor(time / 60_000) * 60_000;

export function useNow(periodMs = 60_000): number {
  const [now, setNow] = useState(() => minute(Date.now()));
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(minute(Date.now()));
    }, periodMs);
    return () => {
      clearInterval(timer);
    };
  }, [periodMs]);
  return now;
}
