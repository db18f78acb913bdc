import { useTheme } from '@mui/material/styles';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ChartRow } from './ChartPanel';

const MARGIN = { top: 8, right: 8, left: 0, bottom: 0 };

/**
 * Rows of a label and a value drawn as bars or as a line. Not animated, and without recharts'
 * keyboard layer: the panel gives screen readers and keyboards the figures as a table.
 */
export function ChartDrawing({
  kind,
  rows,
  valueName,
}: {
  kind: 'bar' | 'line';
  rows: ChartRow[] | undefined;
  valueName: string;
}) {
  const { palette } = useTheme();
  const Chart = kind === 'bar' ? BarChart : LineChart;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <Chart accessibilityLayer={false} data={rows} margin={MARGIN}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="label" interval="preserveStartEnd" tick={{ fontSize: 12 }} />
        <YAxis allowDecimals={false} width={32} />
        <Tooltip />
        {kind === 'bar' ? (
          <Bar
            dataKey="value"
            name={valueName}
            fill={palette.primary.main}
            radius={[4, 4, 0, 0]}
            isAnimationActive={false}
          />
        ) : (
          <Line
            type="monotone"
            dataKey="value"
            name={valueName}
            stroke={palette.secondary.main}
            strokeWidth={2}
            dot={rows !== undefined && rows.length <= 31}
            isAnimationActive={false}
          />
        )}
      </Chart>
    </ResponsiveContainer>
  );
}
