<?php
/**
 * The markup of the block and the shortcode: made here, after the post's content has been through kses, so no
 * role's filters can strip it. The tag, the fallback inside it, and the script enqueued for the footer.
 *
 * @package ClinicBooking
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The block "Clinic booking" (block/block.json).
 *
 * @param array $attributes The block's attributes: sections, mode, lang, align.
 * @return string
 */
function clinic_booking_render_block( $attributes ) {
	$attributes = is_array( $attributes ) ? $attributes : array();
	return clinic_booking_markup( $attributes, get_block_wrapper_attributes() );
}

/**
 * The shortcode: [clinic_booking sections="booking" mode="button" lang="fr"].
 *
 * @param array|string $atts The shortcode's attributes ('' when it has none).
 * @return string
 */
function clinic_booking_render_shortcode( $atts ) {
	$atts = shortcode_atts(
		array(
			'sections' => '',
			'mode'     => '',
			'lang'     => '',
		),
		is_array( $atts ) ? $atts : array(),
		'clinic_booking'
	);
	return clinic_booking_markup( $atts, 'class="clinic-booking-shortcode"' );
}

/**
 * What a block or a shortcode asked for, checked against the widget's lists; an empty or invalid value takes
 * the settings' default, and the language the site's.
 *
 * @param array $asked sections, mode, lang as given.
 * @return array{sections: string, mode: string, lang: string}
 */
function clinic_booking_widget_attributes( array $asked ) {
	$settings = clinic_booking_settings();
	$sections = Clinic_Booking_Lists::sections( isset( $asked['sections'] ) ? $asked['sections'] : '' );
	$mode     = Clinic_Booking_Lists::mode( isset( $asked['mode'] ) ? $asked['mode'] : '' );
	$lang     = Clinic_Booking_Lists::lang( isset( $asked['lang'] ) ? $asked['lang'] : '' );
	return array(
		'sections' => '' !== $sections ? $sections : Clinic_Booking_Lists::sections( $settings['sections'] ),
		'mode'     => '' !== $mode ? $mode : Clinic_Booking_Lists::mode( $settings['mode'] ),
		'lang'     => '' !== $lang ? $lang : ( '' !== $settings['lang'] ? Clinic_Booking_Lists::lang( $settings['lang'] ) : clinic_booking_site_lang() ),
	);
}

/**
 * The link shown inside the element until the widget renders, without JavaScript, and when the BFF is down.
 *
 * @return string
 */
function clinic_booking_fallback_markup() {
	$phone = clinic_booking_settings()['phone'];
	$href  = clinic_booking_tel_href( $phone );
	if ( '' === $href ) {
		return '<p class="clinic-booking-fallback">' . esc_html__( 'To book an appointment, please contact the clinic.', 'clinic-booking' ) . '</p>';
	}
	return '<p class="clinic-booking-fallback"><a href="' . esc_url( $href, array( 'tel' ) ) . '">'
		/* translators: %s: the clinic's phone number as the settings write it. */
		. esc_html( sprintf( __( 'Call to book: %s', 'clinic-booking' ), $phone ) )
		. '</a></p>';
}

/**
 * The widget's markup: a wrapper, the page CSS once, and <clinic-booking> with its fallback inside.
 *
 * @param array  $asked              sections, mode, lang as the block or shortcode gave them.
 * @param string $wrapper_attributes The wrapper's attributes, already escaped (get_block_wrapper_attributes()).
 * @return string
 */
function clinic_booking_markup( array $asked, $wrapper_attributes ) {
	$fallback = clinic_booking_fallback_markup();
	if ( ! clinic_booking_enqueue_widget() ) {
		$note = current_user_can( 'manage_options' )
			? '<p class="clinic-booking-setup"><em>' . esc_html__( 'Clinic booking: set the widget URL in Settings > Clinic booking to show the booking widget here.', 'clinic-booking' ) . '</em></p>'
			: '';
		return '<div ' . $wrapper_attributes . '>' . $note . $fallback . '</div>';
	}
	$widget = clinic_booking_widget_attributes( $asked );
	$tag    = '<clinic-booking';
	foreach ( $widget as $name => $value ) {
		if ( '' !== $value ) {
			$tag .= ' ' . $name . '="' . esc_attr( $value ) . '"';
		}
	}
	return '<div ' . $wrapper_attributes . '>' . clinic_booking_page_css_once() . $tag . '>' . $fallback . '</clinic-booking></div>';
}
