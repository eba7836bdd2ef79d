import type { SourceSchedule } from '@backsignal/contracts';
import { SelectField, TextField } from '../../components/ui/Field.tsx';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function ScheduleFields({
  value,
  onChange,
  timeError,
}: {
  value: SourceSchedule;
  onChange: (s: SourceSchedule) => void;
  /** What is wrong with the time of day ("Save source" pressed with it empty). */
  timeError?: string;
}) {
  const time = value.every === 'hour' ? '08:00' : value.time;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <SelectField
        label="Runs"
        value={value.every}
        onChange={(e) => {
          const every = e.target.value;
          onChange(
            every === 'hour'
              ? { every: 'hour', minute: 0 }
              : every === 'day'
                ? { every: 'day', time }
                : { every: 'week', weekday: 1, time },
          );
        }}
      >
        <option value="hour">Every hour</option>
        <option value="day">Daily</option>
        <option value="week">Weekly</option>
      </SelectField>
      {value.every === 'hour' ? (
        <TextField
          label="At minute"
          type="number"
          min={0}
          max={59}
          value={value.minute}
          onChange={(e) =>
            onChange({ every: 'hour', minute: Math.min(59, Math.max(0, Number(e.target.value) || 0)) })
          }
        />
      ) : (
        <>
          {value.every === 'week' && (
            <SelectField
              label="On"
              value={value.weekday}
              onChange={(e) => onChange({ ...value, weekday: Number(e.target.value) })}
            >
              {WEEKDAYS.map((d, i) => (
                <option key={d} value={i}>
                  {d}
                </option>
              ))}
            </SelectField>
          )}
          <TextField
            label="At (HH:MM)"
            type="time"
            error={timeError}
            value={value.time}
            onChange={(e) => onChange({ ...value, time: e.target.value.slice(0, 5) })}
          />
        </>
      )}
    </div>
  );
}
